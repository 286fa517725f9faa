// V8's tiering for `levelkit scan`. Every worker thread is an isolate of its own, so every worker
// profiles and optimises the library's code by itself (code and feedback are not shared between
// isolates). With V8's default budget a corpus scan has TurboFan compile ~440 functions per
// worker, ~0.7 s of CPU on V8's background threads for ~1.2 s of scanning: one worker's scan kept
// ~1.45 of 2 cores busy, and each added worker paid it again. A larger budget leaves the
// lukewarm functions (called a few hundred times, then never again) to the baseline tiers and
// optimises only the hot ones; the scan's total CPU fell ~20 % with two workers
// (bench/README.md, "Scan"). It was first raised only when the workers filled the cores, on the
// idea that one worker with a core to spare gets its optimised code sooner from the background
// compiles; measured on an idle machine it does not: one worker on two cores ran the corpus in
// 1.23–1.28 s with the raised budget against 1.22–1.35 s without, for 1.3 s of CPU instead of
// 1.55–1.65 s, and beside one core of other load in 1.6 s instead of 2.0 s. So `levelkit scan`
// always raises it. The CLI owns its process, so it may set a process-wide V8 flag; the library's
// scan() leaves the flags to its caller.
import { setFlagsFromString } from 'node:v8';

/** 8 × V8's default (67,584 bytes of bytecode executed between tier-up checks, Node 20). */
export const SCAN_INTERRUPT_BUDGET = 8 * 67_584;

/**
 * Raises V8's interrupt budget for the rest of the process (the workers start after this, and
 * V8's flags are process-wide), unless the user set it (`node --interrupt-budget=…`, or in
 * NODE_OPTIONS, which Node refuses for V8 flags other than a few; checked anyway). True when it
 * was raised.
 */
export function tuneTieringForScan(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  const given = (a: string) => /^--interrupt[-_]budget(=|$)/.test(a);
  if (execArgv.some(given) || nodeOptions.split(/\s+/).some(given)) return false;
  // Once per process: the entry (bin.ts) raises it before it starts workers, and setting a V8
  // flag again while other isolates run is what Node's docs call undefined behaviour.
  if (!raised) setFlagsFromString(`--interrupt-budget=${SCAN_INTERRUPT_BUDGET}`);
  raised = true;
  return true;
}

let raised = false;
