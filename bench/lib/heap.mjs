// Allocation measured by V8's sampling heap profiler (the inspector's HeapProfiler.startSampling,
// every 64 B on average, objects that the young and old collections freed included), shared by
// bench/js/integrate.mjs and bench/js/record.mjs.
import { Session } from 'node:inspector/promises';

let session;

/**
 * Sampled allocation of `run()` under the function named `root` (samples whose stack passes
 * through it; set-up outside it and the inspector's own messages are not counted): the total in
 * bytes and the bytes by allocating function with its caller ("name:line < caller:line").
 */
export async function sampledAllocation(run, root) {
  if (!session) {
    session = new Session();
    session.connect();
  }
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 64,
    includeObjectsCollectedByMinorGC: true,
    includeObjectsCollectedByMajorGC: true,
  });
  run();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  const by = new Map();
  let total = 0;
  const walk = (node, caller, inRoot) => {
    const name = `${node.callFrame.functionName || '(anonymous)'}:${node.callFrame.lineNumber + 1}`;
    const under = inRoot || node.callFrame.functionName === root;
    if (under && node.selfSize > 0) {
      total += node.selfSize;
      const key = `${name} < ${caller}`;
      by.set(key, (by.get(key) ?? 0) + node.selfSize);
    }
    for (const c of node.children) walk(c, name, under);
  };
  walk(profile.head, '', false);
  return { total, by };
}
