import { SkinOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import type { AppRoute } from '../../shared/routing/AppRoute';
import { tk } from '../../i18n/tk';

/** Theme and base settings: administrators only. */
export const subjectRoute: AppRoute = {
  path: '/System/subject',
  title: tk('route.subject'),
  icon: SkinOutlined,
  roles: ['admin'],
  page: lazy(() => import('./SubjectSettingsPage')),
};

// The login page and the sidebar show the enterprise's subject images.
export { rememberedSubjectImages, subjectImageUrl, useRememberSubjectImages } from './brandingStore';
