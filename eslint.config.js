// ESLint flat config: typescript-eslint's recommended rules over every TypeScript file we own.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "**/generated/**", "docs/api/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: globals.node } },
  // The run viewer's page runs in a browser.
  { files: ["src/viewer/page/**/*.ts"], languageOptions: { globals: globals.browser } },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-unsafe-function-type": "off",
    },
  },
);
