/** The header that carries an API key (interface.md, Authentication 1). */
export const API_KEY_HEADER = 'api-key';
