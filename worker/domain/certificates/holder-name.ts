/**
 * The holder's name in a Korean certificate's common name: NPKI names end in `()` and the holder's identifier digits
 * (`(주)샌드박스상사()0012345678901234`), which tell a person nothing; any other name is kept whole.
 */
export const holderName = (commonName: string): string => /^(.+?)\(\)\d*$/.exec(commonName)?.[1] ?? commonName;
