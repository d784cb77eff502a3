// Nx loads executors with require(); this shim compiles the TypeScript executor on the fly with tsx, as the
// plugin generator's does.
const { require: requireTypeScript } = require('tsx/cjs/api');

const executor = requireTypeScript('./typecheck-executor.ts', __filename);
module.exports = executor.default;
module.exports.typecheckBatch = executor.typecheckBatch;
