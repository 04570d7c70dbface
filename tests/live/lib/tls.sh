#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/live/lib/tls.sh DIR - the lane's own TLS material for Kafka's
# SASL_SSL listener (conf/kafka.properties), made fresh for every run:
#
#	DIR/ca.pem          a CA made here, valid for two days
#	DIR/broker.p12      the broker's key and certificate (PKCS12), for
#	                    CN=localhost with subjectAltName IP:127.0.0.1 and
#	                    DNS:localhost, signed by that CA: a client that
#	                    verifies hostnames (fluid's always do) accepts it
#	                    at 127.0.0.1
#	DIR/truststore.p12  the CA alone, for the job (keytool, PKCS12)
#
# The stores' passwords are read from the environment, never from the
# command line (which ps and the logs would show): LIVE_TLS_BROKER_PASSWORD
# for broker.p12 (kafka.properties reads it through Kafka's environment
# config provider) and, for truststore.p12, the variable named by
# LIVE_TLS_TRUSTSTORE_PASSWORD_ENV.  prepare.py runs this before the lane
# starts, because the broker opens its keystore when it starts.
set -euo pipefail
dir=${1:?usage: tls.sh DIR}
: "${LIVE_TLS_BROKER_PASSWORD:?}" "${LIVE_TLS_TRUSTSTORE_PASSWORD_ENV:?}"
tspass=${!LIVE_TLS_TRUSTSTORE_PASSWORD_ENV:?the truststore password variable is not set}
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
umask 077
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 \
	-subj "/CN=fluid live lane CA" \
	-addext "basicConstraints=critical,CA:TRUE" \
	-addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout broker.key -out broker.csr \
	-subj "/CN=localhost" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n' >broker.ext
openssl x509 -req -in broker.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
	-out broker.pem -days 2 -extfile broker.ext 2>/dev/null
# PBE algorithms every Java 17 reads (OpenSSL 3's defaults need 17.0.x).
openssl pkcs12 -export -in broker.pem -inkey broker.key -certfile ca.pem \
	-name broker -out broker.p12 -passout env:LIVE_TLS_BROKER_PASSWORD \
	-keypbe PBE-SHA1-3DES -certpbe PBE-SHA1-3DES -macalg sha1
keytool -importcert -noprompt -alias lane-ca -file ca.pem \
	-keystore truststore.p12 -storetype PKCS12 \
	-storepass:env "$LIVE_TLS_TRUSTSTORE_PASSWORD_ENV" >/dev/null 2>&1
rm -f ca.key broker.key broker.csr broker.ext ca.srl
chmod 644 ca.pem broker.pem truststore.p12 broker.p12
echo "tls.sh: CA, broker certificate (127.0.0.1, localhost) and truststore in $dir"
