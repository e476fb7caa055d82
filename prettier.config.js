// Prettier: the code's own style (wide lines, single quotes, trailing commas). Markdown and YAML
// are hand-aligned (tables, end-of-line comments) and left out in .prettierignore.
/** @type {import('prettier').Config} */
export default {
  printWidth: 160,
  singleQuote: true,
  trailingComma: 'all',
  semi: true,
  arrowParens: 'always',
  endOfLine: 'lf',
};
