#!/usr/bin/env node
// Thin launcher: the compiled program lives in dist/ (built by `pnpm build`: tsc, then
// scripts/bundle.mjs joins the program and the libraries into dist/geomech.js and its chunks, so
// that start-up loads a few files instead of ~190 modules).
import { run } from '../dist/geomech.js';

run(process.argv.slice(2));
