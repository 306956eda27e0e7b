/**
 * Where the sandbox business's cards are used. Domestic merchants carry what
 * Korean issuers show of them (business number, type, masked representative,
 * phone, address; online and franchise payments leave some blank); overseas
 * ones only a name, a type and where they are.
 */
export interface Merchant {
  name: string;
  businessNumber: string | null;
  businessType: string | null;
  representative: string | null;
  phone: string | null;
  address: string | null;
  /** The currency it charges in: KRW at home, the local one abroad. */
  currency: string;
  /** VAT-exempt supplies (books, medical care, post): their approvals carry a zero VAT. */
  taxFree: boolean;
  /** Usual spend, in the merchant's currency. */
  min: number;
  max: number;
  /** Issuers offer instalments for purchases like these. */
  installable: boolean;
}

type Domestic = [name: string, businessNumber: string | null, businessType: string | null, representative: string | null, phone: string | null, address: string | null, min: number, max: number, flags?: { taxFree?: boolean; installable?: boolean }];

const DOMESTIC_ROWS: Domestic[] = [
  ["스타벅스 역삼역점", "2018512345", "커피전문점", "손*현", "02-558-1742", "서울특별시 강남구 테헤란로 211", 2_500, 48_000],
  ["이디야커피 선릉로점", "2204687123", "커피전문점", "정*아", "02-3452-0917", "서울특별시 강남구 선릉로 428", 2_000, 32_000],
  ["GS25 역삼센터점", "2148829310", "편의점", "김*호", "02-567-2231", "서울특별시 강남구 역삼로 180", 1_200, 25_000],
  ["CU 테헤란로점", "2208176452", "편의점", "이*민", null, "서울특별시 강남구 테헤란로 322", 1_200, 25_000],
  ["김밥천국 역삼점", "2150934871", "일반음식점", "박*희", "02-553-0098", "서울특별시 강남구 논현로 512", 4_000, 60_000],
  ["본가설렁탕 강남본점", "2114520987", "한식", "최*석", "02-546-3321", "서울특별시 강남구 강남대로 354", 9_000, 180_000],
  ["화로상회 삼성점", "1208745612", "일반음식점", "윤*진", "02-6203-4410", "서울특별시 강남구 봉은사로 524", 60_000, 650_000],
  ["한솥도시락 테헤란점", "2203341298", "일반음식점", null, "02-501-7724", "서울특별시 강남구 테헤란로 406", 4_500, 45_000],
  ["SK에너지 테헤란주유소", "2148120334", "주유소", "장*훈", "02-562-5151", "서울특별시 강남구 테헤란로 510", 30_000, 150_000],
  ["GS칼텍스 양재셀프주유소", "2148633917", "주유소", "오*영", "02-577-4020", "서울특별시 서초구 강남대로 205", 30_000, 150_000],
  ["카카오T 택시", "1208811432", "택시", null, "1599-9400", null, 4_800, 45_000],
  ["한국철도공사", "3148200987", "철도", null, "1544-7788", "대전광역시 동구 중앙로 240", 8_400, 120_000],
  ["대한항공", "1108100217", "항공사", null, "1588-2001", "서울특별시 강서구 하늘길 260", 80_000, 1_800_000, { installable: true }],
  ["롯데호텔 서울", "1048100731", "숙박업", null, "02-771-1000", "서울특별시 중구 을지로 30", 150_000, 900_000, { installable: true }],
  ["쿠팡(주)", "1208801280", "전자상거래", null, "1577-7011", null, 5_000, 800_000, { installable: true }],
  ["네이버페이", "7738700127", "전자결제대행", null, "1588-3819", null, 3_000, 500_000, { installable: true }],
  ["배달의민족", "1208158126", "배달대행", null, "1600-0987", null, 12_000, 160_000],
  ["알파문구 역삼점", "2208654093", "문구·사무용품", "한*수", "02-539-1120", "서울특별시 강남구 역삼로 134", 3_000, 420_000],
  ["다이소 역삼점", "2148733102", "생활용품", null, "02-508-7213", "서울특별시 강남구 테헤란로 138", 1_000, 60_000],
  ["롯데하이마트 강남점", "1168134520", "가전제품", null, "02-3452-7500", "서울특별시 강남구 남부순환로 2806", 100_000, 3_500_000, { installable: true }],
  ["이마트 성수점", "2068520117", "대형마트", null, "02-2200-1234", "서울특별시 성동구 뚝섬로 379", 10_000, 600_000, { installable: true }],
  ["교보문고 광화문점", "1028132609", "서점", null, "1544-1900", "서울특별시 종로구 종로 1", 9_000, 250_000, { taxFree: true }],
  ["역삼동우체국", "2148304416", "우편", null, "02-557-9000", "서울특별시 강남구 테헤란로 201", 2_500, 60_000, { taxFree: true }],
  ["강남세브란스병원", "2118205566", "종합병원", null, "1599-6114", "서울특별시 강남구 언주로 211", 15_000, 850_000, { taxFree: true, installable: true }],
  ["강남구청 공영주차장", "2148302201", "주차장", null, null, "서울특별시 강남구 학동로 426", 2_000, 30_000],
];

type Overseas = [name: string, businessType: string, address: string, currency: string, min: number, max: number];

const OVERSEAS_ROWS: Overseas[] = [
  ["AMAZON WEB SERVICES", "클라우드서비스", "SEATTLE WA US", "USD", 20, 900],
  ["GOOGLE*WORKSPACE", "소프트웨어", "MOUNTAIN VIEW CA US", "USD", 6, 300],
  ["ZOOM.US", "소프트웨어", "SAN JOSE CA US", "USD", 15, 200],
  ["SLACK TECHNOLOGIES", "소프트웨어", "SAN FRANCISCO CA US", "USD", 8, 400],
  ["UNITED AIRLINES", "항공사", "CHICAGO IL US", "USD", 300, 2_500],
  ["HOTEL NIKKO NARITA", "숙박업", "NARITA JP", "JPY", 12_000, 90_000],
  ["FAMILYMART SHINJUKU", "편의점", "TOKYO JP", "JPY", 300, 4_000],
  ["BOOKING.COM", "여행사", "AMSTERDAM NL", "EUR", 80, 900],
  ["SINGAPORE AIRLINES", "항공사", "SINGAPORE SG", "SGD", 200, 2_000],
  ["PRET A MANGER", "일반음식점", "LONDON GB", "GBP", 4, 40],
];

export const DOMESTIC_MERCHANTS: Merchant[] = DOMESTIC_ROWS.map(([name, businessNumber, businessType, representative, phone, address, min, max, flags]) => ({
  name,
  businessNumber,
  businessType,
  representative,
  phone,
  address,
  currency: "KRW",
  taxFree: flags?.taxFree ?? false,
  min,
  max,
  installable: flags?.installable ?? false,
}));

export const OVERSEAS_MERCHANTS: Merchant[] = OVERSEAS_ROWS.map(([name, businessType, address, currency, min, max]) => ({
  name,
  businessNumber: null,
  businessType,
  representative: null,
  phone: null,
  address,
  currency,
  taxFree: false,
  min,
  max,
  installable: false,
}));

/** Overseas approvals settle in US dollars, as VISA and Mastercard authorise them for Korean issuers. */
export const SETTLEMENT_CURRENCY_ABROAD = "USD";

/** Dollars per unit of each charging currency. */
export const USD_PER_UNIT: Record<string, number> = { USD: 1, JPY: 0.0067, EUR: 1.09, SGD: 0.75, GBP: 1.27 };
