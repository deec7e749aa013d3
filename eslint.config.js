import neostandard from 'neostandard';
import pluginVue from 'eslint-plugin-vue';
import tseslint from 'typescript-eslint';

// neostandard's code-quality rules without its style rules: Prettier owns the
// layout (.prettierrc.json, with the line limit), so the two never disagree.
export default [
  ...neostandard({ ts: true, noStyle: true, ignores: ['dist/**', 'data/**', 'test-results/**', 'coverage/**'] }),
  ...pluginVue.configs['flat/essential'].map((config) => ({ ...config, files: ['web/site/**/*.vue'] })),
  { files: ['web/site/**/*.vue'], languageOptions: { parserOptions: { parser: tseslint.parser } } },
  {
    files: ['**/*.ts', '**/*.vue'],
    rules: {
      // TypeScript already checks every name, DOM globals included.
      'no-undef': 'off',
      // `const X = Type.Object(...)` beside `type X = Static<typeof X>`: types come from the schemas.
      '@typescript-eslint/no-redeclare': 'off',
      // `void promise` marks a promise left to run on purpose.
      'no-void': 'off',
      // Upstream and contract field names (country_name, probe_cc) are not ours to rename.
      camelcase: ['error', { properties: 'never', ignoreDestructuring: true }],
    },
  },
];
