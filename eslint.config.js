// ESLint for the page (web/): TypeScript's recommended rules and React's hooks rules. Formatting
// is Prettier's (.prettierrc.json), so no rule here is about layout.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['web/src/engine/pkg/**', 'web/src/engine/pkg-full/**', 'web/offline/sw.js'] },
  // Until the store lands (issue 18): the two layouts still hold the logic the store takes over.
  { ignores: ['web/src/App.tsx', 'web/src/embed/Embed.tsx'] },
  {
    files: ['web/**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended, reactHooks.configs.flat.recommended],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
);
