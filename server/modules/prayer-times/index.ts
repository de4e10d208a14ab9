/** What other modules and the app use of the prayer times; the rest stays inside the module. */
export { registerPrayerTimeRoutes } from './routes';
export { PrayerTimesService } from './service';
