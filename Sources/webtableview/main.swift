print("webtableview")
