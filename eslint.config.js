// Lint rules for the whole repository (run by `npm run check`).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'scratch/', '.bench/'] },
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
    // No import cycles in the program: a module's dependencies always form a
    // tree a reader can follow down. This rule sees value imports; `npm run
    // lint` also runs dpdm, which sees type-only imports too.
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
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
