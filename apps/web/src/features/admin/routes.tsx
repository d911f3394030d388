/** The back-office routes (back-office.md §2), mounted under /admin behind RequireAdminArea. */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../routes/lazyPage';

// The layout and each screen are their own chunks, loaded on first visit: nothing of the back-office is in the
// entry chunk.
const AdminLayout = lazyPage(() => import('./AdminLayout'), 'AdminLayout');
const ComingSoon = lazyPage(() => import('./ComingSoon'), 'ComingSoon');
const ServersPage = lazyPage(() => import('./servers/ServersPage'), 'ServersPage');
const JobsPage = lazyPage(() => import('./jobs/JobsPage'), 'JobsPage');
const JobDetailPage = lazyPage(() => import('./jobs/JobDetailPage'), 'JobDetailPage');
const ModelsPage = lazyPage(() => import('./models/ModelsPage'), 'ModelsPage');
const CustomizationsPage = lazyPage(() => import('./customizations/CustomizationsPage'), 'CustomizationsPage');
const ModelParamsPage = lazyPage(() => import('./model-params/ModelParamsPage'), 'ModelParamsPage');
const VouchersPage = lazyPage(() => import('../admin-accounts/VouchersPage'), 'VouchersPage');
const TemplatesPage = lazyPage(() => import('../admin-accounts/TemplatesPage'), 'TemplatesPage');
const AccessControlPage = lazyPage(() => import('./access-control/AccessControlPage'), 'AccessControlPage');
const AuditLogPage = lazyPage(() => import('./audit/AuditLogPage'), 'AuditLogPage');
const DashboardPage = lazyPage(() => import('./dashboard/DashboardPage'), 'DashboardPage');
const UsersPage = lazyPage(() => import('./users/UsersPage'), 'UsersPage');
const UserProfilePage = lazyPage(() => import('./users/UserProfilePage'), 'UserProfilePage');
const InsightsPage = lazyPage(() => import('./insights/InsightsPage'), 'InsightsPage');
const NewsPage = lazyPage(() => import('./news/NewsPage'), 'NewsPage');
const TermsPage = lazyPage(() => import('./terms/TermsPage'), 'TermsPage');
const SettingsPage = lazyPage(() => import('./settings/SettingsPage'), 'SettingsPage');
const GroupsPage = lazyPage(() => import('./groups/GroupsPage'), 'GroupsPage');
const ImagesPage = lazyPage(() => import('./images/ImagesPage'), 'ImagesPage');
const TrainingRunsPage = lazyPage(() => import('./training/TrainingRunsPage'), 'TrainingRunsPage');
const TrainingRunPage = lazyPage(() => import('./training/TrainingRunPage'), 'TrainingRunPage');
const ModelVersionsPage = lazyPage(() => import('./training/ModelVersionsPage'), 'ModelVersionsPage');

export const adminRoutes: RouteObject[] = [
  {
    path: '/admin',
    element: <AdminLayout />,
    children: [
      { index: true, element: <DashboardPage /> },
      { path: 'users', element: <UsersPage /> },
      { path: 'users/:id', element: <UserProfilePage /> },
      { path: 'users/:id/:tab', element: <UserProfilePage /> },
      { path: 'users-privileges', element: <AccessControlPage /> },
      { path: 'audit-log', element: <AuditLogPage /> },
      { path: 'groups', element: <GroupsPage /> },
      { path: 'vouchers', element: <VouchersPage /> },
      { path: 'resources', element: <ServersPage /> },
      { path: 'compute-compute-models-registry', element: <ModelsPage /> },
      { path: 'compute-compute-models-registry/:id/versions', element: <ModelVersionsPage /> },
      { path: 'training', element: <TrainingRunsPage /> },
      { path: 'training/:id', element: <TrainingRunPage /> },
      { path: 'customizations', element: <CustomizationsPage /> },
      { path: 'model-params', element: <ModelParamsPage /> },
      { path: 'project-settings-templates', element: <TemplatesPage /> },
      { path: 'news', element: <NewsPage /> },
      { path: 'insights', element: <InsightsPage /> },
      { path: 'terms', element: <TermsPage /> },
      { path: 'images', element: <ImagesPage /> },
      { path: 'jobs', element: <JobsPage /> },
      { path: 'jobs/:id', element: <JobDetailPage /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: '*', element: <ComingSoon page="notFound" /> },
    ],
  },
];
