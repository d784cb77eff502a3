// Nx loads executors with require(). tsx compiles the TypeScript executor, and only while it is required: ESLint
// requires its rules lazily, and a Map subclass among them breaks when tsx's hook transforms it.
const { register } = require('tsx/cjs/api');

const unregister = register();
const executor = require('./check-executor.ts');
unregister();
module.exports = executor.default;
module.exports.checkBatch = executor.checkBatch;
