# Optional container image; Docker is not needed to run or test Souvenir.
FROM python:3.12-slim
WORKDIR /app
COPY . .
RUN pip install --no-cache-dir .
ENV SOUVENIR_DATA_DIR=/data
VOLUME ["/data"]
CMD ["souvenir", "run"]
