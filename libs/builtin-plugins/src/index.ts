export { BUILTIN_PLUGINS, DEFAULT_MANIFEST } from './builtin-plugins';
