// ESLint for the page (web/): TypeScript's recommended rules and React's hooks rules. Formatting
// is Prettier's (.prettierrc.json), so no rule here is about layout.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['web/src/engine/pkg/**', 'web/src/engine/pkg-full/**', 'web/offline/sw.js'] },
  {
    files: ['web/**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended, reactHooks.configs.flat.recommended],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
);
