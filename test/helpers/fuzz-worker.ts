// Runs inside a worker thread (loaded through tsx): decodes prefixes and seeded mutations of
// the given files with both kernel sets — WASM kernels with the WASM inflater, TypeScript kernels
// with node:zlib — and reports every outcome that is not a result or a DecodeError, and every
// case where the two disagree. The parent kills the worker
// on timeout, so a hang fails the test instead of blocking it.
import { parentPort, workerData } from 'node:worker_threads';
import { DecodeError, decode } from '../../src/index.js';
import { Prng } from './prng.js';

export interface FuzzJob {
  files: { name: string; bytes: Uint8Array }[];
  seed: number;
  mutationsPerFile: number;
  /** Every prefix when the file is at most this long, else a sample of about this many lengths. */
  maxPrefixes: number;
  /** Decode through a named format namespace instead of detect() (for formats detect() cannot see). */
  decoder?: string;
}

export interface FuzzReport {
  cases: number;
  decoded: number;
  errors: Record<string, number>;
  failures: string[];
}

type Decoder = (b: Uint8Array, opts: object) => unknown;

async function pickDecoder(job: FuzzJob): Promise<Decoder> {
  if (!job.decoder) return decode as Decoder;
  const mod = (await import('../../src/index.js')) as unknown as Record<string, { decode: Decoder }>;
  return mod[job.decoder]!.decode;
}

const SIDES = {
  wasm: { backend: 'wasm', inflate: 'wasm' },
  js: { backend: 'js', inflate: 'native' },
} as const;

function outcome(dec: Decoder, bytes: Uint8Array, side: keyof typeof SIDES): string {
  try {
    dec(bytes, SIDES[side]);
    return 'ok';
  } catch (e) {
    if (e instanceof DecodeError) return e.code;
    return `THROWN ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`;
  }
}

async function run(job: FuzzJob): Promise<FuzzReport> {
  const dec = await pickDecoder(job);
  const rng = new Prng(job.seed);
  const report: FuzzReport = { cases: 0, decoded: 0, errors: {}, failures: [] };
  const check = (name: string, what: string, bytes: Uint8Array) => {
    const copy = bytes.slice();
    const a = outcome(dec, bytes, 'wasm');
    const b = outcome(dec, bytes, 'js');
    report.cases++;
    if (a === 'ok') report.decoded++;
    else report.errors[a] = (report.errors[a] ?? 0) + 1;
    if (a.startsWith('THROWN') || b.startsWith('THROWN')) report.failures.push(`${name} ${what}: ${a.startsWith('THROWN') ? a : b}`);
    else if (a !== b) report.failures.push(`${name} ${what}: wasm gave ${a}, js gave ${b}`);
    if (copy.some((v, i) => v !== bytes[i])) report.failures.push(`${name} ${what}: input was mutated`);
  };
  for (const { name, bytes } of job.files) {
    const n = bytes.length;
    const lengths = new Set<number>();
    if (n <= job.maxPrefixes) for (let i = 0; i < n; i++) lengths.add(i);
    else {
      for (let i = 0; i < 64; i++) {
        lengths.add(i);
        lengths.add(n - 1 - i);
      }
      while (lengths.size < job.maxPrefixes) lengths.add(rng.int(n));
    }
    for (const len of lengths) if (len >= 0) check(name, `prefix ${len}`, bytes.subarray(0, len));
    for (let m = 0; m < job.mutationsPerFile; m++) {
      const mutated = bytes.slice();
      const flips = 1 + rng.int(4);
      const where: number[] = [];
      for (let f = 0; f < flips; f++) {
        const at = rng.int(n);
        // Mostly small headers and counts matter: bias a third of the flips to the first 2 KB.
        const pos = f % 3 === 0 ? at % Math.min(n, 2048) : at;
        mutated[pos] = rng.int(3) === 0 ? 0xff : rng.next() & 0xff;
        where.push(pos);
      }
      check(name, `mutation ${m} (seed ${job.seed}, bytes ${where.join(',')})`, mutated);
    }
  }
  return report;
}

run(workerData as FuzzJob).then(
  (r) => parentPort!.postMessage(r),
  (e) => parentPort!.postMessage({ cases: 0, decoded: 0, errors: {}, failures: [`worker crashed: ${(e as Error)?.stack}`] }),
);
