import { authHeaders } from '../api/auth';

/** The visitor's sign-in headers; none when sign-in cannot give them, so the API's answer says to sign in. */
export const signInHeaders = (): Promise<Record<string, string>> => authHeaders().catch(() => ({}));
