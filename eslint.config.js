// Lint rules for the whole repository (run by `npm run check`). Import
// cycles, type-only imports included, are refused by dpdm in `npm run lint`.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', '**/dist/', 'node_modules/', 'coverage/', 'scratch/', '.bench/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
      eqeqeq: 'error',
    },
  },
  {
    // The dashboard (dashboard/src): a browser app, with the rules of hooks.
    files: ['dashboard/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The tracker runs in visitors' browsers (tracker/tsconfig.json), not in Node.
    files: ['tracker/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // A WorkspaceId is produced by trusted lookups only (src/tenancy/workspace-id.ts):
    // no cast to it outside the operator repositories and the tenant scope.
    files: ['src/**/*.ts'],
    ignores: ['src/repositories/operator/**', 'src/repositories/scope/tenant-scope.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "TSAsExpression[typeAnnotation.typeName.name='WorkspaceId'], TSTypeAssertion[typeAnnotation.typeName.name='WorkspaceId']",
          message: 'A WorkspaceId comes from a key, a session or the operator lookup, never from a cast.',
        },
        {
          selector: "CallExpression > TSTypeParameterInstantiation TSTypeReference[typeName.name='WorkspaceId']",
          message: 'A WorkspaceId comes from a key, a session or the operator lookup, never from a type argument.',
        },
      ],
    },
  },
);
