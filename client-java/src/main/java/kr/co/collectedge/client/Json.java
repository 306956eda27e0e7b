package kr.co.collectedge.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one JSON mapper: amounts read as BigDecimal from their text, fields the service adds later ignored, a request's
 * unset (null) fields left out rather than sent as null.
 */
final class Json {
  static final ObjectMapper MAPPER = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .serializationInclusion(JsonInclude.Include.NON_NULL)
      .build();

  private Json() {}
}
