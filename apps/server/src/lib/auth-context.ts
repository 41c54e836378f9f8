/** Who is calling: set by the auth plugin from a live session token. */
export interface AuthContext {
  sessionId: string;
  userId: string;
  name: string;
  email: string;
  role: 'member' | 'admin';
  organizationId: string;
  organizationName: string;
  /** Changes whenever anything in the organization that a menu shows changes. */
  menuVersion: number;
  expiresAt: Date;
}
