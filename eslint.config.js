// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import layering from './eslint-rules/layering.js';

/** DOM globals that src/shared must not touch: it is pure TypeScript shared by every layer. */
const DOM_GLOBALS = [
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'HTMLElement',
  'location',
];

/**
 * A renderer component shows; what it reads from main or sends is a `use-<what>.ts` hook beside
 * it, through useBridgeCall (hooks/use-bridge-call.ts), the one place main's refusal becomes
 * words. The bridge client itself is outside these rules (it is what the hooks call).
 */
const NO_WORDS_OUTSIDE_THE_CALL_HOOK = {
  selector:
    "ImportDeclaration[source.value=/(^|\\/)errors$/] ImportSpecifier[imported.name='cashierMessage']",
  message:
    "Main's refusal becomes words in hooks/use-bridge-call.ts: use useBridgeCall (its error) or failureOf.",
};
const CALLS_IN_HOOKS =
  "A component calls main through its screen's use-<screen>.ts hook (useBridgeCall).";
const NO_BRIDGE_IN_COMPONENTS = [
  {
    selector: "CallExpression[callee.type='MemberExpression'][callee.object.name='bridge']",
    message: CALLS_IN_HOOKS,
  },
  {
    selector:
      "ImportDeclaration[source.value=/bridge-context$/] ImportSpecifier[imported.name='useBridge']",
    message: CALLS_IN_HOOKS,
  },
  NO_WORDS_OUTSIDE_THE_CALL_HOOK,
];
const RENDERER_RULE_EXEMPT = ['src/renderer/src/**/*.test.{ts,tsx}', 'src/renderer/src/bridge/**'];
/** The page's wiring (the root holds the bridge; the contexts provide it) and hook files. */
const RENDERER_WIRING = [
  'src/renderer/src/app.tsx',
  'src/renderer/src/bridge-context.tsx',
  'src/renderer/src/session-context.tsx',
  'src/renderer/src/**/use-*.tsx',
];

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'test-results/**',
      'bench-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { local: layering },
    rules: {
      'local/layering': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': [
        'error',
        { 'ts-expect-error': 'allow-with-description' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...DOM_GLOBALS.map((name) => ({ name, message: 'src/shared must not use DOM globals.' })),
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The hooks rules, including the compiler-era ones, for the only React code there is.
    files: ['src/renderer/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['src/renderer/src/**/*.tsx'],
    ignores: [...RENDERER_RULE_EXEMPT, ...RENDERER_WIRING],
    rules: { 'no-restricted-syntax': ['error', ...NO_BRIDGE_IN_COMPONENTS] },
  },
  {
    files: ['src/renderer/src/**/*.ts', ...RENDERER_WIRING],
    ignores: [...RENDERER_RULE_EXEMPT, 'src/renderer/src/hooks/use-bridge-call.ts'],
    rules: { 'no-restricted-syntax': ['error', NO_WORDS_OUTSIDE_THE_CALL_HOOK] },
  },
  {
    // A function past about 120 lines wants a split (ARCHITECTURE.md): production code only.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: {
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
    },
  },
);
