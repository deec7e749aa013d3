// A stand-in until sign-in lands: it provides the signed-in visitor's real token headers.
export function authHeaders(): Promise<Record<string, string>> {
  return Promise.resolve({});
}
