/**
 * `create-admin --user-pool POOL`: an organization admin in the stack's Cognito user pool, as
 * the deployed console signs them in: a user named by their e-mail (verified), in the group
 * that names their organization (made if missing): the access token's `cognito:groups`, which
 * only an operator can change. Cognito e-mails a temporary password unless one is given
 * (then nothing is sent); either way it must be changed at the first sign-in.
 */
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  GroupExistsException,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { normalizeEmail, orgNameProblem } from '../shared/domain/admins.js';
import { AdminError } from '../shared/services/admin-service.js';

export interface CognitoAdminInput {
  userPoolId: string;
  orgName: string;
  email: string;
  /** A temporary password of the operator's choosing (nothing is e-mailed then). */
  password?: string;
}

export const createCognitoAdmin = async (
  client: CognitoIdentityProviderClient,
  input: CognitoAdminInput,
): Promise<{ email: string; orgName: string; emailed: boolean }> => {
  const problem = orgNameProblem(input.orgName);
  if (problem) throw new AdminError(problem);
  const email = normalizeEmail(input.email);
  if (!email) throw new AdminError(`Not an e-mail address: "${input.email}"`);
  const { userPoolId: UserPoolId, orgName: GroupName } = input;
  try {
    await client.send(
      new CreateGroupCommand({ UserPoolId, GroupName, Description: `Organization admins of ${GroupName} (Knap API)` }),
    );
  } catch (error) {
    if (!(error instanceof GroupExistsException)) throw error;
  }
  try {
    await client.send(
      new AdminCreateUserCommand({
        UserPoolId,
        Username: email,
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
        ...(input.password
          ? { TemporaryPassword: input.password, MessageAction: 'SUPPRESS' as const }
          : { DesiredDeliveryMediums: ['EMAIL' as const] }),
      }),
    );
  } catch (error) {
    if (error instanceof UsernameExistsException)
      throw new AdminError(`An admin with e-mail ${email} exists already in ${UserPoolId}`);
    throw error;
  }
  await client.send(new AdminAddUserToGroupCommand({ UserPoolId, Username: email, GroupName }));
  return { email, orgName: GroupName, emailed: !input.password };
};

/** The client from the environment (AWS_REGION, credentials; AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER for a stand-in). */
export const cognitoClient = (): CognitoIdentityProviderClient => new CognitoIdentityProviderClient({});
