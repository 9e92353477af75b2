import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import intercom from './scripts/eslint/publicEntryRule.js';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '.e2e/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ['**/*.{ts,tsx,mts}'] })),
  {
    // Type-aware rules (typescript-eslint's recommendedTypeChecked, above): a promise is awaited,
    // returned or deliberately voided, never dropped; nothing is called, read or passed as `any`; a
    // cast that changes nothing is not written. A switch over a union names every member, so a new
    // message or event type cannot slip through unhandled; a `default:` does not count as covering
    // the rest (a bus subscriber names the kinds it takes with `bus.on(kind, handler)` instead).
    files: ['**/*.{ts,tsx,mts}'],
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.ts', 'scripts/eslint/*.ts', 'scripts/*.d.mts', 'scripts/*.test.ts'],
          // The scripts' declarations and tests (10 files) have no project of their own.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: false }],
    },
  },
  {
    // Tests, end-to-end tests and benchmarks read untyped JSON replies (`res.json()`, page.evaluate)
    // and assert them field by field: typing every reply there would restate the contract without
    // checking more than the assertions do. The no-unsafe-* rules stay on in the code they test.
    files: ['**/test/**', '**/*.test.{ts,tsx}', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // A server module or console feature is used by others only through its index.ts.
    files: ['apps/server/src/**/*.ts', 'apps/console/src/**/*.{ts,tsx}'],
    plugins: { intercom },
    rules: {
      'intercom/public-entry': ['error', { roots: ['apps/server/src/modules', 'apps/console/src/features'] }],
    },
  },
  {
    files: ['apps/console/**/*.{ts,tsx}', 'apps/field/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Every text a person reads is an i18n key (STYLE.md): words written straight into JSX are flagged.
    files: ['apps/console/src/**/*.tsx', 'apps/field/src/**/*.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'JSXText[value=/\\p{L}/u]', message: 'Text in JSX must come from t(): add an i18n key.' },
        {
          selector: ':matches(JSXElement, JSXFragment) > JSXExpressionContainer > Literal[value=/\\p{L}/u]',
          message: 'Text in JSX must come from t(): add an i18n key.',
        },
        {
          selector:
            ':matches(JSXElement, JSXFragment) > JSXExpressionContainer > TemplateLiteral > TemplateElement[value.raw=/\\p{L}/u]',
          message: 'Text in JSX must come from t(): add an i18n key.',
        },
        {
          selector: 'JSXAttribute[name.name=/^(title|alt|placeholder|aria-label|label)$/] > Literal[value=/\\p{L}/u]',
          message: 'Text in JSX must come from t(): add an i18n key.',
        },
      ],
    },
  },
);
