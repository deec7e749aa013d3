// Made at build time by country-names-plugin.ts.
declare module 'virtual:country-names/*' {
  const names: Readonly<Record<string, string>>;
  export default names;
}
declare module 'virtual:country-codes' {
  const codes: readonly string[];
  export default codes;
}
