CREATE TABLE IF NOT EXISTS `_env_flink-env1`.`default`.`orders-by-country__source_3fb5017033e2` (
  `event_id` STRING NOT NULL,
  `customer` ROW<`id` STRING, `address` ROW<`city` STRING, `country` STRING>>,
  `total_items` INT,
  `attributes` MAP<STRING NOT NULL, STRING>,
  `event_time` TIMESTAMP_LTZ(3),
  `order_key` STRING,
  `kafka_partition` INT NOT NULL METADATA FROM 'partition' VIRTUAL,
  `kafka_offset` BIGINT NOT NULL METADATA FROM 'offset' VIRTUAL,
  WATERMARK FOR `event_time` AS `event_time` - INTERVAL '5' SECOND
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders',
  'properties.bootstrap.servers' = 'kafka:9092',
  'properties.group.id' = 'forge-commerce-orders-cfk-v1',
  'scan.startup.mode' = 'earliest-offset',
  'key.format' = 'raw',
  'key.fields' = 'order_key',
  'value.fields-include' = 'EXCEPT_KEY',
  'value.format' = 'json',
  'value.json.fail-on-missing-field' = 'false',
  'value.json.ignore-parse-errors' = 'false'
);

CREATE TABLE IF NOT EXISTS `_env_flink-env1`.`default`.`orders-by-country__sink_c8b42618f787` (
  `event_id` STRING NOT NULL,
  `order_key` STRING,
  `customer_id` STRING,
  `country` STRING,
  `channel` STRING,
  `total_items` BIGINT,
  `event_time` TIMESTAMP_LTZ(3),
  `kafka_partition` INT NOT NULL,
  `kafka_offset` BIGINT NOT NULL
) PARTITIONED BY (`country`) WITH (
  'connector' = 'iceberg',
  'catalog-name' = 'fluid_iceberg',
  'catalog-type' = 'rest',
  'uri' = 'https://catalog.example.com/api/catalog',
  'warehouse' = 's3://lake/warehouse',
  'io-impl' = 'org.apache.iceberg.aws.s3.S3FileIO',
  's3.endpoint' = 'https://s3.example.com',
  's3.path-style-access' = 'true',
  'catalog-database' = 'commerce',
  'catalog-table' = 'orders_cfk',
  'format-version' = '2',
  'write.format.default' = 'parquet'
);

INSERT INTO `_env_flink-env1`.`default`.`orders-by-country__sink_c8b42618f787` (`event_id`, `order_key`, `customer_id`, `country`, `channel`, `total_items`, `event_time`, `kafka_partition`, `kafka_offset`)
SELECT `fluid_query`.`event_id`, `fluid_query`.`order_key`, `fluid_query`.`customer_id`, `fluid_query`.`country`, `fluid_query`.`channel`, `fluid_query`.`total_items`, CAST(`fluid_query`.`event_time` AS TIMESTAMP_LTZ(3)), `fluid_query`.`kafka_partition`, `fluid_query`.`kafka_offset`
FROM (
WITH `source_events` AS (SELECT * FROM `_env_flink-env1`.`default`.`orders-by-country__source_3fb5017033e2`)
SELECT
  `s`.`event_id` AS `event_id`,
  `s`.`order_key` AS `order_key`,
  `s`.`customer`.`id` AS `customer_id`,
  `s`.`customer`.`address`.`country` AS `country`,
  `s`.`attributes`['channel'] AS `channel`,
  CAST(`s`.`total_items` AS BIGINT) AS `total_items`,
  `s`.`event_time` AS `event_time`,
  `s`.`kafka_partition` AS `kafka_partition`,
  `s`.`kafka_offset` AS `kafka_offset`
FROM `source_events` AS `s`
) AS `fluid_query`;

