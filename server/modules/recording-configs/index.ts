/** What other modules and the app use of the recording configurations; the rest stays inside the module. */
export { registerConfigRoutes } from './routes';
export { RecordingConfigService } from './service';
