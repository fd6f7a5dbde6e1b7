#!/usr/bin/env node
// Thin launcher: the compiled program lives in dist/ (built by `pnpm build`).
import { run } from '../dist/bin.js';

run(process.argv.slice(2));
