// WASM bindings: similarity signature of a tile grid, in a module of its own
// (assembly/signature-entry.ts, embedded as signature.generated.ts), instantiated on first use.
// The grid is copied into its arena whole, as u32 cells whatever its width (a typed-array set widens
// u8 and u16 natively; one kernel loop instead of three keeps the module small), beside the
// kernel's per-column scratch. The kernel's four-cell loads may read up to 12 bytes past the grid:
// the scratch region follows it.
import { Status } from '../status.js';
import { compileError, decodeBase64, hostWebAssembly, WasmRuntime } from './runtime.js';
import { SIGNATURE_WASM_BASE64 } from './signature.generated.js';

const SIGNATURE_BYTES = 128;

let runtime: WasmRuntime | null = null;
let failure: unknown = null;

/** The signature module's runtime; throws WasmUnavailableError where WebAssembly (with SIMD) cannot run it. */
function signatureRuntime(): WasmRuntime {
  if (runtime) return runtime;
  if (failure) throw failure;
  try {
    const wa = hostWebAssembly();
    let module: WebAssembly.Module;
    try {
      module = new wa.Module(decodeBase64(SIGNATURE_WASM_BASE64) as BufferSource);
    } catch (e) {
      throw compileError(e);
    }
    runtime = new WasmRuntime(module);
    return runtime;
  } catch (e) {
    failure = e;
    throw e;
  }
}

/** True when the signature module can be (or already is) instantiated here. */
export function signatureWasmAvailable(): boolean {
  try {
    signatureRuntime();
    return true;
  } catch {
    return false;
  }
}

export function gridSignature(cells: Uint8Array | Uint16Array | Uint32Array, width: number, height: number, out: Uint8Array): number {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0 || cells.length < width * height) return Status.TRUNCATED;
  if (out.length < SIGNATURE_BYTES) return Status.OVERFLOW;
  const rt = signatureRuntime();
  try {
    const used = cells.subarray(0, width * height);
    const [pc, ps, po] = rt.reserve(used.length * 4, ((width + 7) & ~3) * 12 + SIGNATURE_BYTES * 4, SIGNATURE_BYTES) as [number, number, number];
    if (used instanceof Uint32Array) rt.put(used, pc);
    else new Uint32Array(rt.u8.buffer, pc, used.length).set(used);
    const status = (rt.exports.gridSignature as (cells: number, width: number, height: number, scratch: number, out: number) => number)(
      pc,
      width,
      height,
      ps,
      po,
    );
    rt.get(out.subarray(0, SIGNATURE_BYTES), po);
    return status;
  } finally {
    rt.release();
  }
}
