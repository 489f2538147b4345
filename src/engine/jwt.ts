/**
 * The JWT verifier, for a contract whose part 5 declares JWT schemes (OAuth 2, OpenID
 * Connect, bearer JWTs): `createApp(contract, { engine: OPERATION_ENGINE, jwt: JWT_VERIFIER })`.
 * It is its own entry so that a Worker without such a scheme does not bundle jose.
 */
export { verifyJwt as JWT_VERIFIER } from "./authentication/verify-jwt";
