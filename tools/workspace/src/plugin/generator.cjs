// Nx loads generator factories with require(); without @swc-node/register or ts-node it cannot load
// TypeScript itself, so this shim compiles generator.ts on the fly with tsx (a root devDependency).
const { require: requireTypeScript } = require('tsx/cjs/api');

module.exports = requireTypeScript('./generator.ts', __filename);
