// Nx loads executors with require(); this shim compiles the TypeScript executor on the fly with tsx, as the
// typecheck executor's does. Vitest itself is imported as ESM.
const { require: requireTypeScript } = require('tsx/cjs/api');

const executor = requireTypeScript('./test-executor.ts', __filename);
module.exports = executor.default;
module.exports.testBatch = executor.testBatch;
