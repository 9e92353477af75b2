import { MessageKeys, UserImportKeys, type UserImportLang } from '@intercom/contract';

type Catalogue = Record<string, string>;

/**
 * Texts of every code a user import may report, per language: the import answers thousands of row
 * errors at once, so each carries its text (`message`) next to its key (`code`).
 */
const catalogue: Record<UserImportLang, Catalogue> = {
  en: {
    [UserImportKeys.fileMissing]: 'Choose a file to import (form field "file")',
    [UserImportKeys.fileType]: 'The file is neither CSV (UTF-8) nor Excel (XLSX)',
    [UserImportKeys.fileTooLarge]: 'The file is larger than 10 MB',
    [UserImportKeys.fileUnreadable]: 'The file cannot be read',
    [UserImportKeys.zipBomb]: 'The Excel file expands to too much data',
    [UserImportKeys.tooManyRows]: 'The file has more than 20,000 rows',
    [UserImportKeys.empty]: 'The file has no rows to import',
    [UserImportKeys.headerMissing]: 'The header row has no MobilePhone column',
    [UserImportKeys.duplicateInFile]: 'The same value appears on an earlier row',
    [UserImportKeys.departmentUnknown]: 'No such department in this enterprise',
    [UserImportKeys.channelUnknown]: 'No such channel in this enterprise',
    [UserImportKeys.userTypeUnknown]: 'No such user type in this enterprise',
    [UserImportKeys.quota]: 'Not enough user licences for the new users',
    [UserImportKeys.busy]: 'Another import is running; try again in a minute',
    [UserImportKeys.fileTooComplex]: 'The file needs more memory to read than an import may use',
    [UserImportKeys.cannotImport]: 'This phone cannot be imported',
    [MessageKeys.required]: 'Required',
    [MessageKeys.invalid]: 'Invalid value',
    [MessageKeys.tooLong]: 'Too long',
    [MessageKeys.outOfRange]: 'Out of range',
    [MessageKeys.phoneInvalid]: 'The phone must be 3-20 digits',
    [MessageKeys.phoneExists]: 'This phone is already in use',
    [MessageKeys.nameExists]: 'This name is already in use',
    [MessageKeys.iccidLength]: 'The ICCID must have 19 or 20 characters',
    [MessageKeys.iccidInvalid]: 'The ICCID may hold only digits and letters',
    [MessageKeys.iccidExists]: 'This ICCID is already in use',
    [MessageKeys.terminalPasswordInvalid]: 'The password must be 6-16 printable characters without spaces',
  },
  zh: {
    [UserImportKeys.fileMissing]: '请选择要导入的文件（表单字段 "file"）',
    [UserImportKeys.fileType]: '文件既不是 CSV（UTF-8）也不是 Excel（XLSX）',
    [UserImportKeys.fileTooLarge]: '文件超过 10 MB',
    [UserImportKeys.fileUnreadable]: '无法读取该文件',
    [UserImportKeys.zipBomb]: 'Excel 文件解压后的数据过大',
    [UserImportKeys.tooManyRows]: '文件超过 20,000 行',
    [UserImportKeys.empty]: '文件中没有可导入的行',
    [UserImportKeys.headerMissing]: '表头中没有手机号（MobilePhone）列',
    [UserImportKeys.duplicateInFile]: '该值已出现在前面的行中',
    [UserImportKeys.departmentUnknown]: '本企业没有该部门',
    [UserImportKeys.channelUnknown]: '本企业没有该频道',
    [UserImportKeys.userTypeUnknown]: '本企业没有该用户类型',
    [UserImportKeys.quota]: '用户授权数不足以创建新用户',
    [UserImportKeys.busy]: '另一个导入正在进行，请稍后再试',
    [UserImportKeys.fileTooComplex]: '读取该文件所需的内存超出导入的限制',
    [UserImportKeys.cannotImport]: '该手机号无法导入',
    [MessageKeys.required]: '必填',
    [MessageKeys.invalid]: '值无效',
    [MessageKeys.tooLong]: '过长',
    [MessageKeys.outOfRange]: '超出范围',
    [MessageKeys.phoneInvalid]: '手机号须为 3-20 位数字',
    [MessageKeys.phoneExists]: '该手机号已被使用',
    [MessageKeys.nameExists]: '该名称已被使用',
    [MessageKeys.iccidLength]: 'ICCID 须为 19 或 20 个字符',
    [MessageKeys.iccidInvalid]: 'ICCID 只能包含数字和字母',
    [MessageKeys.iccidExists]: '该 ICCID 已被使用',
    [MessageKeys.terminalPasswordInvalid]: '密码须为 6-16 个不含空格的可打印字符',
  },
  es: {
    [UserImportKeys.fileMissing]: 'Elija un archivo para importar (campo "file")',
    [UserImportKeys.fileType]: 'El archivo no es CSV (UTF-8) ni Excel (XLSX)',
    [UserImportKeys.fileTooLarge]: 'El archivo supera los 10 MB',
    [UserImportKeys.fileUnreadable]: 'No se puede leer el archivo',
    [UserImportKeys.zipBomb]: 'El archivo Excel se expande a demasiados datos',
    [UserImportKeys.tooManyRows]: 'El archivo tiene más de 20.000 filas',
    [UserImportKeys.empty]: 'El archivo no tiene filas que importar',
    [UserImportKeys.headerMissing]: 'La fila de encabezado no tiene la columna MobilePhone',
    [UserImportKeys.duplicateInFile]: 'El mismo valor aparece en una fila anterior',
    [UserImportKeys.departmentUnknown]: 'No existe ese departamento en esta empresa',
    [UserImportKeys.channelUnknown]: 'No existe ese canal en esta empresa',
    [UserImportKeys.userTypeUnknown]: 'No existe ese tipo de usuario en esta empresa',
    [UserImportKeys.quota]: 'No hay licencias de usuario suficientes para los usuarios nuevos',
    [UserImportKeys.busy]: 'Hay otra importación en curso; inténtelo de nuevo en un minuto',
    [UserImportKeys.fileTooComplex]: 'Leer el archivo necesita más memoria de la que puede usar una importación',
    [UserImportKeys.cannotImport]: 'Este teléfono no se puede importar',
    [MessageKeys.required]: 'Obligatorio',
    [MessageKeys.invalid]: 'Valor no válido',
    [MessageKeys.tooLong]: 'Demasiado largo',
    [MessageKeys.outOfRange]: 'Fuera de rango',
    [MessageKeys.phoneInvalid]: 'El teléfono debe tener de 3 a 20 dígitos',
    [MessageKeys.phoneExists]: 'Este teléfono ya está en uso',
    [MessageKeys.nameExists]: 'Este nombre ya está en uso',
    [MessageKeys.iccidLength]: 'El ICCID debe tener 19 o 20 caracteres',
    [MessageKeys.iccidInvalid]: 'El ICCID solo puede contener dígitos y letras',
    [MessageKeys.iccidExists]: 'Este ICCID ya está en uso',
    [MessageKeys.terminalPasswordInvalid]: 'La contraseña debe tener de 6 a 16 caracteres imprimibles sin espacios',
  },
  ja: {
    [UserImportKeys.fileMissing]: 'インポートするファイルを選択してください（フォーム項目 "file"）',
    [UserImportKeys.fileType]: 'ファイルが CSV（UTF-8）でも Excel（XLSX）でもありません',
    [UserImportKeys.fileTooLarge]: 'ファイルが 10 MB を超えています',
    [UserImportKeys.fileUnreadable]: 'ファイルを読み取れません',
    [UserImportKeys.zipBomb]: 'Excel ファイルの展開後のデータが大きすぎます',
    [UserImportKeys.tooManyRows]: 'ファイルの行数が 20,000 を超えています',
    [UserImportKeys.empty]: 'インポートする行がありません',
    [UserImportKeys.headerMissing]: '見出し行に携帯電話番号（MobilePhone）列がありません',
    [UserImportKeys.duplicateInFile]: '同じ値が前の行にあります',
    [UserImportKeys.departmentUnknown]: 'この企業にその部署はありません',
    [UserImportKeys.channelUnknown]: 'この企業にそのチャンネルはありません',
    [UserImportKeys.userTypeUnknown]: 'この企業にそのユーザータイプはありません',
    [UserImportKeys.quota]: '新しいユーザーに必要なライセンスが不足しています',
    [UserImportKeys.busy]: '別のインポートが実行中です。しばらくしてから再度お試しください',
    [UserImportKeys.fileTooComplex]: 'このファイルの読み取りには、インポートで使えるメモリを超える量が必要です',
    [UserImportKeys.cannotImport]: 'この電話番号はインポートできません',
    [MessageKeys.required]: '必須です',
    [MessageKeys.invalid]: '値が無効です',
    [MessageKeys.tooLong]: '長すぎます',
    [MessageKeys.outOfRange]: '範囲外です',
    [MessageKeys.phoneInvalid]: '電話番号は 3～20 桁の数字です',
    [MessageKeys.phoneExists]: 'この電話番号は使用されています',
    [MessageKeys.nameExists]: 'この名前は使用されています',
    [MessageKeys.iccidLength]: 'ICCID は 19 または 20 文字です',
    [MessageKeys.iccidInvalid]: 'ICCID には数字と英字のみ使えます',
    [MessageKeys.iccidExists]: 'この ICCID は使用されています',
    [MessageKeys.terminalPasswordInvalid]: 'パスワードは空白を含まない 6～16 文字の印字可能文字です',
  },
};

/** Every code the import may report (a test checks each has a text in every language). */
export const USER_IMPORT_CODES: readonly string[] = Object.keys(catalogue.en);

/** The text of a code in a language; an unknown code falls back to English, then to the code. */
export function importMessage(lang: UserImportLang, code: string): string {
  return catalogue[lang][code] ?? catalogue.en[code] ?? code;
}

/** The language of a request: `?lang=`, else the first supported Accept-Language, else English. */
export function importLang(query: UserImportLang | undefined, acceptLanguage: string | undefined): UserImportLang {
  if (query) return query;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if (tag === 'en' || tag === 'zh' || tag === 'es' || tag === 'ja') return tag;
  }
  return 'en';
}
