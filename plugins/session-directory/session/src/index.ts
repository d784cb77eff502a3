import { sessionDirectorySessionFacet } from './picker-facet';

export { sessionDirectorySessionFacet };

/** The session host imports the module the contract's "pi" field names and runs its default export. */
export default sessionDirectorySessionFacet;
