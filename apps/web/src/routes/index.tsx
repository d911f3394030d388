/** The route table. Public routes first, then everything behind RequireUser inside the app layout. */
import { createBrowserRouter, Navigate } from 'react-router';
import { AppLayout } from '../features/layout/AppLayout';
import { PublicLayout } from '../features/layout/PublicLayout';
import { LoginPage } from '../features/auth/LoginPage';
import { RegisterPage } from '../features/auth/RegisterPage';
import { VerifyEmailPage } from '../features/auth/VerifyEmailPage';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { OtpPage } from '../features/auth/OtpPage';
import { AccountRemovalPage } from '../features/auth/AccountRemovalPage';
import { LogoutPage } from '../features/auth/LogoutPage';
import { TermsPage } from '../features/public/TermsPage';
import { StaticTextPage } from '../features/public/StaticTextPage';
import { DashboardWorkbench } from '../features/workbench/DashboardWorkbench';
import { HistoryPage } from '../features/history/HistoryPage';
import { ProfilePage } from '../features/profile/ProfilePage';
import { AccessKeysPage } from '../features/access-keys/AccessKeysPage';
import { PlaceholderPage } from '../features/placeholders/PlaceholderPage';
import { adminRoutes } from '../features/admin/routes';
import { GuestOnly, RequireAdminArea, RequireUser, RootRedirect } from './guards';
import { lazyPage } from './lazyPage';

// Heavy screens load on first visit (charts, canvas editing, the sandbox stepper).
const ResultsPage = lazyPage(() => import('../features/results/ResultsPage'), 'ResultsPage');
const SandboxPage = lazyPage(() => import('../features/sandbox/SandboxPage'), 'SandboxPage');
const AdminSandboxPage = lazyPage(() => import('../features/sandbox/SandboxPage'), 'AdminSandboxPage');
const MaskEditorPage = lazyPage(() => import('../features/mask-editor/MaskEditorPage'), 'MaskEditorPage');

export const router = createBrowserRouter([
  { path: '/', element: <RootRedirect /> },
  {
    element: <PublicLayout />,
    children: [
      { path: '/auth', element: <Navigate to="/auth/login" replace /> },
      {
        path: '/auth/login',
        element: (
          <GuestOnly>
            <LoginPage />
          </GuestOnly>
        ),
      },
      {
        path: '/auth/register',
        element: (
          <GuestOnly>
            <RegisterPage />
          </GuestOnly>
        ),
      },
      { path: '/auth/verify-email', element: <VerifyEmailPage /> },
      { path: '/auth/reset-password', element: <ResetPasswordPage /> },
      { path: '/auth/otp', element: <OtpPage /> },
      { path: '/auth/account-removal', element: <AccountRemovalPage /> },
      { path: '/auth/*', element: <Navigate to="/auth/login" replace /> },
      { path: '/terms', element: <TermsPage /> },
      { path: '/imprint', element: <StaticTextPage page="imprint" /> },
      { path: '/licenses', element: <StaticTextPage page="licenses" /> },
      { path: '/logout', element: <LogoutPage /> },
    ],
  },
  {
    element: <RequireUser />,
    children: [
      { path: '/admin/mask-editor', element: <MaskEditorPage /> },
      {
        element: <AppLayout />,
        children: [
          { path: '/dashboard/*', element: <DashboardWorkbench /> },
          { path: '/profile', element: <ProfilePage /> },
          { path: '/access-keys', element: <AccessKeysPage /> },
          { path: '/history/*', element: <HistoryPage /> },
          { path: '/projects/*', element: <PlaceholderPage page="projects" /> },
          { path: '/sandbox', element: <SandboxPage /> },
          { path: '/sandbox/admin', element: <AdminSandboxPage /> },
          { path: '/group-admin/*', element: <PlaceholderPage page="groupAdmin" groupAdminOnly /> },
          { path: '/models/:name/*', element: <ResultsPage /> },
          {
            element: <RequireAdminArea />,
            children: adminRoutes,
          },
          { path: '*', element: <PlaceholderPage page="notFound" /> },
        ],
      },
    ],
  },
]);
