# SPDX-License-Identifier: Apache-2.0
"""moto's S3 server for the live lane, without a log line per request.

  s3_server.py HOST PORT
"""
import logging
import sys

from moto.server import main

if __name__ == "__main__":
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    main(["-H", sys.argv[1], "-p", sys.argv[2]])
