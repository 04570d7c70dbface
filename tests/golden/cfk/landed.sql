CREATE TABLE IF NOT EXISTS `_env_flink-env1`.`default`.`land-orders__source_afb575ab677e` (
  `event_id` STRING NOT NULL,
  `customer` ROW<`id` STRING, `address` ROW<`city` STRING, `country` STRING>>,
  `items` ARRAY<ROW<`sku` STRING, `quantity` INT, `price` DECIMAL(18, 2)>>,
  `attributes` MAP<STRING NOT NULL, STRING>,
  `event_time` TIMESTAMP_LTZ(3),
  `order_key` STRING,
  `kafka_partition` INT NOT NULL METADATA FROM 'partition' VIRTUAL,
  `kafka_offset` BIGINT NOT NULL METADATA FROM 'offset' VIRTUAL,
  `kafka_timestamp` TIMESTAMP_LTZ(3) NOT NULL METADATA FROM 'timestamp' VIRTUAL,
  `kafka_headers` MAP<STRING NOT NULL, BYTES> NOT NULL METADATA FROM 'headers' VIRTUAL,
  WATERMARK FOR `event_time` AS `event_time` - INTERVAL '5' SECOND
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders',
  'properties.bootstrap.servers' = 'kafka:9092',
  'properties.group.id' = 'forge-commerce-orders-landed-v1',
  'scan.startup.mode' = 'earliest-offset',
  'key.format' = 'raw',
  'key.fields' = 'order_key',
  'value.fields-include' = 'EXCEPT_KEY',
  'value.format' = 'json',
  'value.json.fail-on-missing-field' = 'false',
  'value.json.ignore-parse-errors' = 'false'
);

CREATE TABLE IF NOT EXISTS `_env_flink-env1`.`default`.`land-orders__sink_7764ee1d5eea` (
  `order_key` STRING,
  `event_id` STRING NOT NULL,
  `customer` ROW<`id` STRING, `address` ROW<`city` STRING, `country` STRING>>,
  `items` ARRAY<ROW<`sku` STRING, `quantity` INT, `price` DECIMAL(18, 2)>>,
  `attributes` MAP<STRING NOT NULL, STRING>,
  `event_time` TIMESTAMP_LTZ(3),
  `kafka_partition` INT NOT NULL,
  `kafka_offset` BIGINT NOT NULL,
  `kafka_timestamp` TIMESTAMP_LTZ(3) NOT NULL
) WITH (
  'connector' = 'iceberg',
  'catalog-name' = 'fluid_iceberg',
  'catalog-type' = 'rest',
  'uri' = 'https://catalog.example.com/api/catalog',
  'warehouse' = 's3://lake/warehouse',
  'io-impl' = 'org.apache.iceberg.aws.s3.S3FileIO',
  's3.endpoint' = 'https://s3.example.com',
  's3.path-style-access' = 'true',
  'catalog-database' = 'commerce',
  'catalog-table' = 'orders_landed',
  'format-version' = '2',
  'write.format.default' = 'parquet'
);

INSERT INTO `_env_flink-env1`.`default`.`land-orders__sink_7764ee1d5eea` (`order_key`, `event_id`, `customer`, `items`, `attributes`, `event_time`, `kafka_partition`, `kafka_offset`, `kafka_timestamp`)
SELECT `fluid_query`.`order_key`, `fluid_query`.`event_id`, `fluid_query`.`customer`, `fluid_query`.`items`, `fluid_query`.`attributes`, CAST(`fluid_query`.`event_time` AS TIMESTAMP_LTZ(3)), `fluid_query`.`kafka_partition`, `fluid_query`.`kafka_offset`, CAST(`fluid_query`.`kafka_timestamp` AS TIMESTAMP_LTZ(3))
FROM (
WITH `source_events` AS (SELECT * FROM `_env_flink-env1`.`default`.`land-orders__source_afb575ab677e`)
SELECT
  `s`.`order_key` AS `order_key`,
  `s`.`event_id` AS `event_id`,
  CASE WHEN `s`.`customer` IS NULL THEN NULL ELSE ROW(`s`.`customer`.`id`, CASE WHEN `s`.`customer`.`address` IS NULL THEN NULL ELSE ROW(`s`.`customer`.`address`.`city`, `s`.`customer`.`address`.`country`) END) END AS `customer`,
  `s`.`items` AS `items`,
  `s`.`attributes` AS `attributes`,
  `s`.`event_time` AS `event_time`,
  `s`.`kafka_partition` AS `kafka_partition`,
  `s`.`kafka_offset` AS `kafka_offset`,
  `s`.`kafka_timestamp` AS `kafka_timestamp`
FROM `source_events` AS `s`
) AS `fluid_query`;

