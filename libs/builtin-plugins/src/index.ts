export { BUILTIN_PLUGINS_ROOT, DEFAULT_MANIFEST } from './builtin-plugins';
