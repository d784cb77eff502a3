// Nx loads inference plugins with require(); this shim compiles the TypeScript plugin on the fly with tsx.
const { require: requireTypeScript } = require('tsx/cjs/api');

module.exports = requireTypeScript('./test-inference.ts', __filename);
