import { Sandbox } from './Sandbox';

export { AdminSandboxPage } from './AdminSandboxPage';

/** The sandbox (/sandbox): try models on one image. */
export function SandboxPage() {
  return <Sandbox admin={false} />;
}
