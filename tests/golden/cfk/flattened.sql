CREATE TABLE IF NOT EXISTS `_env_flink-env1`.`default`.`flatten-order-items__source_865c7cd73c71` (
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
  'properties.group.id' = 'forge-commerce-order-items-v1',
  'scan.startup.mode' = 'earliest-offset',
  'key.format' = 'raw',
  'key.fields' = 'order_key',
  'value.fields-include' = 'EXCEPT_KEY',
  'value.format' = 'json',
  'value.json.fail-on-missing-field' = 'false',
  'value.json.ignore-parse-errors' = 'false'
);

CREATE TABLE IF NOT EXISTS `_env_flink-env1`.`default`.`flatten-order-items__sink_f1b933636e19` (
  `event_id` STRING NOT NULL,
  `event_time` TIMESTAMP_LTZ(3),
  `customer_id` STRING,
  `country` STRING,
  `channel` STRING,
  `sku` STRING,
  `quantity` INT,
  `price` DECIMAL(18, 2),
  `kafka_partition` INT NOT NULL,
  `kafka_offset` BIGINT NOT NULL,
  `trace_id` STRING
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
  'catalog-table' = 'order_items',
  'format-version' = '2',
  'write.format.default' = 'parquet'
);

INSERT INTO `_env_flink-env1`.`default`.`flatten-order-items__sink_f1b933636e19` (`event_id`, `event_time`, `customer_id`, `country`, `channel`, `sku`, `quantity`, `price`, `kafka_partition`, `kafka_offset`, `trace_id`)
SELECT `fluid_query`.`event_id`, CAST(`fluid_query`.`event_time` AS TIMESTAMP_LTZ(3)), `fluid_query`.`customer_id`, `fluid_query`.`country`, `fluid_query`.`channel`, `fluid_query`.`sku`, `fluid_query`.`quantity`, `fluid_query`.`price`, `fluid_query`.`kafka_partition`, `fluid_query`.`kafka_offset`, `fluid_query`.`trace_id`
FROM (
WITH `source_events` AS (SELECT * FROM `_env_flink-env1`.`default`.`flatten-order-items__source_865c7cd73c71`)
SELECT
  `s`.`event_id` AS `event_id`,
  `s`.`event_time` AS `event_time`,
  `s`.`customer`.`id` AS `customer_id`,
  `s`.`customer`.`address`.`country` AS `country`,
  `s`.`attributes`['channel'] AS `channel`,
  `x`.`sku` AS `sku`,
  `x`.`quantity` AS `quantity`,
  `x`.`price` AS `price`,
  `s`.`kafka_partition` AS `kafka_partition`,
  `s`.`kafka_offset` AS `kafka_offset`,
  CAST(`s`.`kafka_headers`['trace-id'] AS STRING) AS `trace_id`
FROM `source_events` AS `s`
CROSS JOIN UNNEST(`s`.`items`) AS `x` (`sku`, `quantity`, `price`)
UNION ALL
SELECT
  `s`.`event_id` AS `event_id`,
  `s`.`event_time` AS `event_time`,
  `s`.`customer`.`id` AS `customer_id`,
  `s`.`customer`.`address`.`country` AS `country`,
  `s`.`attributes`['channel'] AS `channel`,
  CAST(NULL AS STRING) AS `sku`,
  CAST(NULL AS INT) AS `quantity`,
  CAST(NULL AS DECIMAL(18, 2)) AS `price`,
  `s`.`kafka_partition` AS `kafka_partition`,
  `s`.`kafka_offset` AS `kafka_offset`,
  CAST(`s`.`kafka_headers`['trace-id'] AS STRING) AS `trace_id`
FROM (
  SELECT *, CARDINALITY(`s`.`items`) - CARDINALITY(ARRAY_REMOVE(`s`.`items`, NULL)) AS `null elements`
  FROM `source_events` AS `s`
) AS `s`
CROSS JOIN UNNEST(SPLIT(CONCAT('x', REPEAT(',x', `s`.`null elements` - 1)), ',')) AS `n` (`e`)
WHERE `s`.`null elements` > 0
) AS `fluid_query`;

