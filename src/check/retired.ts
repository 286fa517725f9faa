// Rules taken out of `levelkit check`, with where what they reported went. Ids are a contract
// (CI scripts name them in --skip-rule, old SARIF logs and findings tables hold them): a retired
// id is still accepted by --skip-rule (there is nothing left to skip), and --rule says where it went.
export const RETIRED_RULES: Readonly<Record<string, string>> = {
  'wwd/treasure-totals': 'treasure totals are facts, not problems: levelkit info and the index show them as summary.treasure (issue 40)',
};
