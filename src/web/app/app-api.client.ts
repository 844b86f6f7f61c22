// The app's calls to its server: the bearer token from the sign-in, held in memory only (never in
// storage or a cookie), and problem documents read into errors that name their fields.

export interface FieldError {
  parameter: string;
  message: string;
}

export class ApiProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[];
  constructor(status: number, code: string, detail: string, errors: FieldError[]) {
    super(detail);
    this.status = status;
    this.code = code;
    this.errors = errors;
  }
}

let token: string | undefined;
let onExpired: () => void = () => {};

export function useToken(value: string, expired: () => void): void {
  token = value;
  onExpired = expired;
}

async function problemOf(response: Response): Promise<ApiProblem> {
  const body = (await response.json().catch(() => ({}))) as {
    code?: string;
    detail?: string;
    errors?: FieldError[];
  };
  return new ApiProblem(
    response.status,
    body.code ?? 'error',
    body.detail ?? `${response.status} ${response.statusText}`,
    Array.isArray(body.errors) ? body.errors : [],
  );
}

// biome-ignore lint/suspicious/noExplicitAny: each view reads the fields it shows
export async function api(path: string, options: { method?: string; body?: unknown } = {}): Promise<any> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: 'omit',
    cache: 'no-store',
  });
  if (!response.ok) {
    const problem = await problemOf(response);
    if (response.status === 401 && token) onExpired();
    throw problem;
  }
  return response.json();
}
