/** The route table. Public routes first, then everything behind RequireUser inside the app layout. */
import { createBrowserRouter, Navigate } from 'react-router';
import { PublicLayout } from '../features/layout/PublicLayout';
import { LoginPage } from '../features/auth/LoginPage';
import { PlaceholderPage } from '../features/placeholders/PlaceholderPage';
import { adminRoutes } from '../features/admin/routes';
import { GuestOnly, RequireAdminArea, RequireUser, RootRedirect } from './guards';
import { lazyPage } from './lazyPage';
import { RouteErrorPage } from './RouteErrorPage';

// The entry chunk holds what the sign-in page needs (public layout, the sign-in page, the guards). Every other
// screen loads on first visit: the other auth pages (e-mail check, password reset, second factor, account removal,
// sign-out), the signed-in layout and its pages, the register and terms pages (the terms text brings DOMPurify),
// the dashboard, charts, canvas editing, the sandbox. A signed-in first load of /dashboard thus carries no auth
// page but the sign-in page (issue 30 item 5).
const VerifyEmailPage = lazyPage(() => import('../features/auth/VerifyEmailPage'), 'VerifyEmailPage');
const ResetPasswordPage = lazyPage(() => import('../features/auth/ResetPasswordPage'), 'ResetPasswordPage');
const OtpPage = lazyPage(() => import('../features/auth/OtpPage'), 'OtpPage');
const AccountRemovalPage = lazyPage(() => import('../features/auth/AccountRemovalPage'), 'AccountRemovalPage');
const LogoutPage = lazyPage(() => import('../features/auth/LogoutPage'), 'LogoutPage');
const RegisterPage = lazyPage(() => import('../features/auth/RegisterPage'), 'RegisterPage');
const TermsPage = lazyPage(() => import('../features/public/TermsPage'), 'TermsPage');
const StaticTextPage = lazyPage(() => import('../features/public/StaticTextPage'), 'StaticTextPage');
const AppLayout = lazyPage(() => import('../features/layout/AppLayout'), 'AppLayout');
const DashboardWorkbench = lazyPage(() => import('../features/workbench/DashboardWorkbench'), 'DashboardWorkbench');
const HistoryPage = lazyPage(() => import('../features/history/HistoryPage'), 'HistoryPage');
const ProfilePage = lazyPage(() => import('../features/profile/ProfilePage'), 'ProfilePage');
const AccessKeysPage = lazyPage(() => import('../features/access-keys/AccessKeysPage'), 'AccessKeysPage');
const ResultsPage = lazyPage(() => import('../features/results/ResultsPage'), 'ResultsPage');
const SandboxPage = lazyPage(() => import('../features/sandbox/SandboxPage'), 'SandboxPage');
const AdminSandboxPage = lazyPage(() => import('../features/sandbox/SandboxPage'), 'AdminSandboxPage');
const MaskEditorPage = lazyPage(() => import('../features/mask-editor/MaskEditorPage'), 'MaskEditorPage');
const ProjectsPage = lazyPage(() => import('../features/projects/ProjectsPage'), 'ProjectsPage');
const GroupAdminPage = lazyPage(() => import('../features/group-admin/GroupAdminPage'), 'GroupAdminPage');
const LibraryPage = lazyPage(() => import('../features/library/LibraryPage'), 'LibraryPage');
const RecipesPage = lazyPage(() => import('../features/recipes/RecipesPage'), 'RecipesPage');
const RecipeEditorPage = lazyPage(() => import('../features/recipes/RecipeEditorPage'), 'RecipeEditorPage');
const RecipePage = lazyPage(() => import('../features/recipes/RecipePage'), 'RecipePage');

/**
 * The first screen's code, started by the entry with the translations and the session (main.tsx) instead of after
 * them: a signed-in page needs the layout, /dashboard the workbench too (one chunk, `signed-in`, vite.config.ts).
 */
export function preloadFirstScreen(pathname: string): void {
  if (pathname === '/' || /^\/(auth|terms|imprint|licenses|logout)(\/|$)/.test(pathname)) return;
  void AppLayout.preload().catch(() => undefined);
  if (/^\/dashboard(\/|$)/.test(pathname)) void DashboardWorkbench.preload().catch(() => undefined);
}

// Every route has a friendly error element (RouteErrorPage: a screen whose code failed to load reloads the app once);
// inside the app layout the error shows in the page area, with the menu kept.
const errorElement = <RouteErrorPage />;

export const router = createBrowserRouter([
  { path: '/', element: <RootRedirect />, errorElement },
  {
    element: <PublicLayout />,
    errorElement,
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
    errorElement,
    children: [
      { path: '/admin/mask-editor', element: <MaskEditorPage /> },
      {
        element: <AppLayout />,
        children: [
          {
            errorElement,
            children: [
              { path: '/dashboard/*', element: <DashboardWorkbench /> },
              { path: '/profile', element: <ProfilePage /> },
              { path: '/access-keys', element: <AccessKeysPage /> },
              { path: '/history/*', element: <HistoryPage /> },
              { path: '/projects/*', element: <ProjectsPage /> },
              { path: '/library/*', element: <LibraryPage /> },
              { path: '/recipes', element: <RecipesPage /> },
              { path: '/recipes/new', element: <RecipeEditorPage /> },
              { path: '/recipes/:id', element: <RecipePage /> },
              { path: '/sandbox', element: <SandboxPage /> },
              { path: '/sandbox/admin', element: <AdminSandboxPage /> },
              { path: '/group-admin/*', element: <GroupAdminPage /> },
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
    ],
  },
]);
