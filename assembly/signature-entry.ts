// Entry of the signature module: the grid-signature kernel (signature.ts) and the arena, in a
// module of their own. Only the archive index's families need it, so the formats' bundles, which
// embed kernels.release.wasm, do not carry it (test/bundle-size.test.ts budgets).

export { arenaBase, arenaEnsure } from './memory';
export { gridSignature } from './signature';
