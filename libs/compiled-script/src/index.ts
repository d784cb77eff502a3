export { compiledScript } from './compiled-script';
