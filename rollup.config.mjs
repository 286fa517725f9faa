// dist/: ESM + CJS library builds (pako external), bundled type declarations for both, a
// self-contained browser ESM build (pako inlined, for <script type="module"> without a bundler),
// and the CLI. The WASM module is inlined by src/kernels/wasm/binary.generated.ts (npm run asbuild).

import { nodeResolve } from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';

const ts = () => typescript({ tsconfig: './tsconfig.build.json' });
const external = (id) => id === 'pako' || id.startsWith('node:') || id === 'fast-png';

export default [
  {
    input: 'src/index.ts',
    external,
    plugins: [ts()],
    output: [
      { file: 'dist/index.mjs', format: 'es', sourcemap: true },
      { file: 'dist/index.cjs', format: 'cjs', sourcemap: true, exports: 'named' },
    ],
  },
  {
    input: 'src/index.ts',
    plugins: [nodeResolve({ browser: true }), ts()],
    output: { file: 'dist/levelkit.browser.mjs', format: 'es', sourcemap: true },
  },
  {
    input: 'src/cli/main.ts',
    external,
    plugins: [ts()],
    output: { file: 'dist/cli.mjs', format: 'es', banner: '#!/usr/bin/env node' },
  },
  {
    input: 'src/index.ts',
    external,
    plugins: [dts({ tsconfig: './tsconfig.build.json' })],
    output: [
      { file: 'dist/index.d.mts', format: 'es' },
      { file: 'dist/index.d.cts', format: 'es' },
    ],
  },
];
