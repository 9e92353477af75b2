/** Where the safety settings list lives; the edit form is `${SAFETY_LIST_PATH}/edit[?key=]`. */
export const SAFETY_LIST_PATH = '/main/safety';
