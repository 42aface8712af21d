import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import workspaceImports from './scripts/eslint-workspace-imports.mjs';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-results/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    plugins: { local: { rules: { 'workspace-imports': workspaceImports } } },
    rules: { 'local/workspace-imports': 'error' },
  },
  {
    // The demo is read by merchants top to bottom: no function in it runs past 100 lines, every
    // line counted (blank lines and comments too), nested callbacks counted in their outer function.
    files: ['demo-server/src/**/*.ts'],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: 100, skipBlankLines: false, skipComments: false, IIFEs: true },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
