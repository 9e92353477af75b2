/** Where the fence list lives; the edit form is `${GEOFENCE_LIST_PATH}/edit[?id=]`. */
export const GEOFENCE_LIST_PATH = '/main/geofence';
