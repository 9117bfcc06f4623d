import type { Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

/** What the Lambda runtime sets that the functions read (the tracer, the log context), and the trace header. */
const LAMBDA_ENV = [
  'AWS_LAMBDA_FUNCTION_NAME',
  'LAMBDA_TASK_ROOT',
  'AWS_EXECUTION_ENV',
  'AWS_XRAY_DAEMON_ADDRESS',
  '_X_AMZN_TRACE_ID',
];

/**
 * Makes this process look like a deployed function named `functionName` whose X-Ray daemon is
 * `daemon` (a UDP socket of the test); returns what puts the environment back.
 */
export const actAsLambda = (functionName: string, daemon: Socket): (() => void) => {
  Object.assign(process.env, {
    AWS_LAMBDA_FUNCTION_NAME: functionName,
    LAMBDA_TASK_ROOT: '/var/task',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${(daemon.address() as AddressInfo).port}`,
  });
  return () => {
    for (const name of LAMBDA_ENV) delete process.env[name];
  };
};
