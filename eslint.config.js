import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'data',
      '.tmp',
      'src/api/schema.gen.ts',
      'test-results',
      'playwright-report',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-default-export': 'error',
    },
  },
  {
    // Config files are loaded by tools that expect a default export.
    files: ['*.config.ts', '*.config.js'],
    rules: { 'import-x/no-default-export': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y, '@tanstack/query': pluginQuery },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      ...pluginQuery.configs.recommended.rules,
      // Dependencies point one way: lib, components, api -> features -> routes.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/lib',
              from: ['./src/api', './src/components', './src/features', './src/routes'],
            },
            { target: './src/api', from: ['./src/components', './src/features', './src/routes'] },
            { target: './src/components', from: ['./src/features', './src/routes'] },
            { target: './src/features', from: ['./src/routes'] },
            { target: './src/features/webpages', from: './src/features', except: ['./webpages'] },
            { target: './src/features/preview', from: './src/features', except: ['./preview'] },
            { target: './src/features/upload', from: './src/features', except: ['./upload'] },
            { target: './src/features/views', from: './src/features', except: ['./views'] },
            {
              target: './src/features/connection',
              from: './src/features',
              except: ['./connection'],
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts', 'e2e/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', '*.config.{ts,js}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
