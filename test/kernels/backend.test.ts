// Backend honesty: `backend: 'wasm'` where WebAssembly is missing throws a clear error instead
// of running TypeScript; `auto` falls back to the JS kernels and says so by the set's name.
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** Fresh copies of the kernel modules, so no instance from an earlier import is reused. */
async function freshSelect() {
  vi.resetModules();
  const select = await import('../../src/kernels/select.js');
  const wasm = await import('../../src/kernels/wasm/index.js');
  return { ...select, ...wasm };
}

describe('backend choice', () => {
  it('with WebAssembly, wasm and auto both run WASM and js runs TS', async () => {
    const { chooseKernels } = await freshSelect();
    expect(chooseKernels('wasm').name).toBe('wasm');
    expect(chooseKernels('auto').name).toBe('wasm');
    expect(chooseKernels('js').name).toBe('js');
  });

  it('without WebAssembly: wasm throws WasmUnavailableError, auto falls back to js', async () => {
    vi.stubGlobal('WebAssembly', undefined);
    const { chooseKernels, WasmUnavailableError, wasmAvailable, wasmMemoryBytes } = await freshSelect();
    expect(() => chooseKernels('wasm')).toThrow(WasmUnavailableError);
    expect(() => chooseKernels('wasm')).toThrow(/needs WebAssembly.*backend 'js'/);
    expect(wasmAvailable()).toBe(false);
    expect(chooseKernels('auto').name).toBe('js');
    expect(chooseKernels('js').name).toBe('js');
    expect(wasmMemoryBytes()).toBe(0);
  });

  it('a module that does not compile (e.g. no SIMD) is a clear error too', async () => {
    const Real = WebAssembly;
    vi.stubGlobal('WebAssembly', {
      ...Real,
      // A function, not an arrow: the loader calls it with `new`.
      Module: function Module() {
        throw new Real.CompileError('simd unsupported');
      },
    });
    const { chooseKernels, WasmUnavailableError } = await freshSelect();
    expect(() => chooseKernels('wasm')).toThrow(WasmUnavailableError);
    expect(() => chooseKernels('wasm')).toThrow(/could not be compiled.*simd unsupported/);
    expect(chooseKernels('auto').name).toBe('js');
  });

  it('decode through the public API: wasm throws, auto decodes with TS', async () => {
    vi.stubGlobal('WebAssembly', undefined);
    vi.resetModules();
    const { wwd } = await import('../../src/index.js');
    const bytes = wwd.encode(wwd.newLevel({ name: 'x', planes: [wwd.newPlane({ name: 'Action', flags: 1, tilesWide: 2, tilesHigh: 2 })] }), { backend: 'js' });
    expect(() => wwd.decode(bytes, { backend: 'wasm' })).toThrow(/needs WebAssembly/);
    expect(wwd.decode(bytes, { backend: 'auto' }).planes[0]!.tiles.length).toBe(4);
  });
});

describe('memory growth failure', () => {
  it('a call whose arena cannot grow throws WasmUnavailableError (no silent TS run)', async () => {
    const { wasmKernels, WasmUnavailableError } = await freshSelect();
    const k = wasmKernels();
    // Outputs of 2 × 2^31 bytes need a region past 4 GiB, which 32-bit WASM memory cannot hold:
    // the same path as a failed grow (expandTileSkip takes its outputs whole; streaming kernels
    // never ask for much). The fakes are never touched: the reservation comes first.
    const huge = { length: 0x8000_0000 } as unknown as Uint8Array;
    const call = () => k.expandTileSkip(Uint8Array.of(1, 0, 0, 0), huge, huge);
    expect(call).toThrow(WasmUnavailableError);
    expect(call).toThrow(/could not grow/);
    expect(k.sumBytes(Uint8Array.of(1, 2))).toBe(3);
  });
});
